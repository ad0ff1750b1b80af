import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { ownership } from '../../logic/ownership';
import { membersOf, shipmentDocument } from '../../schemas';
import {
	flattenResource,
	includedKey,
	recordName,
	relatedIdentifiers,
	relatedRecord,
	type IncludedIndex,
} from '../../records/jsonApi';
import type { JsonApiResource } from '../../schemas';
import { requestRecord } from '../../transport/record';
import { withWarnings } from '../common';
import { locatedId, shipmentLocator } from '../locators';
import { pickFields, simplifyField, wantsSimplified } from '../simplify';
import type { OperationOption } from '../operation';

export const SHIPMENT_INCLUDES = [
	'containers',
	'port_of_lading',
	'port_of_discharge',
	'destination',
	'pod_terminal',
	'destination_terminal',
];

export const option: OperationOption = {
	name: 'Get',
	action: 'Get a shipment',
	description:
		'Get a shipment: bill of lading, shipping line, its containers, ports, vessel and arrival times',
};

export const toolDescription =
	'Use this when someone asks about a shipment as a whole by its bill of lading: its shipping line, ports, vessel, arrival times and containers. Returns one answer for the shipment.';

export const description: INodeProperties[] = [
	shipmentLocator('get'),
	simplifyField('shipment', ['get']),
];

/**
 * A shipment as an item: its attributes (bill of lading, line, ports, vessel, ETAs) with the
 * related records people ask for as flat fields — container numbers, terminal and destination
 * names — and each container in brief.
 */
export function shipmentItem(shipment: JsonApiResource, included: IncludedIndex): IDataObject {
	const flat = flattenResource(shipment, included, 0);
	// Flattening names the to-many relationship `containers_ids`; the item says `container_ids`.
	delete flat.containers_ids;
	const containers = relatedIdentifiers(shipment, 'containers').map((ref) => {
		const record = included.get(includedKey(ref));
		const attributes = membersOf(record?.attributes);
		return {
			id: ref.id,
			number: typeof attributes.number === 'string' ? attributes.number : null,
			current_status: attributes.current_status ?? null,
			available_for_pickup: attributes.available_for_pickup ?? null,
			pickup_lfd: attributes.pickup_lfd ?? null,
		};
	});
	// Whose shipment it is, under the names every container item uses (logic/ownership.ts).
	const owner: IDataObject = { ...ownership(membersOf(shipment.attributes), undefined) };
	delete owner.container_ref_numbers;
	return {
		...flat,
		...owner,
		container_ids: containers.map((container) => container.id),
		container_numbers: containers.map((container) => container.number).filter(Boolean),
		containers,
		pod_terminal_name: recordName(relatedRecord(shipment, 'pod_terminal', included)),
		destination_terminal_name: recordName(
			relatedRecord(shipment, 'destination_terminal', included),
		),
	};
}

const SIMPLE_FIELDS = [
	'id',
	'bill_of_lading_number',
	'customer_name',
	'shipment_ref_numbers',
	'shipment_tags',
	'shipping_line_scac',
	'shipping_line_name',
	'container_numbers',
	'port_of_lading_name',
	'port_of_discharge_name',
	'destination_name',
	'pod_terminal_name',
	'pod_vessel_name',
	'pod_voyage_number',
	'pol_etd_at',
	'pol_atd_at',
	'pod_eta_at',
	'pod_ata_at',
	'destination_eta_at',
	'destination_ata_at',
	'line_tracking_stopped_reason',
] as const;

/** The fields people use: bill of lading, whose it is, line, containers, ports, vessel, ETAs/ATAs. */
export function simplifyShipment(item: IDataObject): IDataObject {
	return pickFields(item, SIMPLE_FIELDS);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const shipmentId = locatedId(this, 'shipmentId', 'Shipment', itemIndex);
	const { record, included, warnings } = await requestRecord.call(
		this,
		'GET',
		`/shipments/${encodeURIComponent(shipmentId)}`,
		shipmentDocument,
		'getting a shipment',
		{ qs: { include: SHIPMENT_INCLUDES.join(',') }, itemIndex },
	);
	const item = withWarnings(shipmentItem(record, included), warnings);
	return [
		{
			json: wantsSimplified(this, itemIndex) ? simplifyShipment(item) : item,
			pairedItem: { item: itemIndex },
		},
	];
}
