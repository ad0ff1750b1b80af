import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	flattenResource,
	recordName,
	relatedRecord,
	relatedRecords,
	type IncludedIndex,
} from '../../records/jsonApi';
import { routeDocument, type JsonApiResource } from '../../schemas';
import { requestRecord } from '../../transport/record';
import { paidFeatureError, withWarnings } from '../common';
import { containerLocator, locatedContainer } from '../locators';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get Route',
	action: 'Get the route of a container',
	description:
		'Where a container goes, stop by stop: ports, terminals, vessels and voyages, when it arrives and leaves each (a paid feature)',
};

export const toolDescription =
	'Use this when someone asks which ports, vessels and voyages a container goes through, or when it reaches each stop. Returns the route stop by stop (a paid feature of the service: it may answer that the account lacks it).';

export const description: INodeProperties[] = [containerLocator('getRoute')];

/** One stop as people read it, then the route location as the service sent it. */
function stopOf(location: JsonApiResource, included: IncludedIndex): IDataObject {
	const place = relatedRecord(location, 'location', included);
	const attributes = (location.attributes ?? {}) as IDataObject;
	return {
		place: recordName(place),
		locode: ((place?.attributes as IDataObject | undefined)?.code as string | undefined) ?? null,
		facility_name: recordName(relatedRecord(location, 'facility', included)),
		arrived_at: attributes.inbound_ata_at ?? null,
		arrival_expected_at: attributes.inbound_eta_at ?? null,
		arrives_by: attributes.inbound_mode ?? null,
		inbound_vessel_name: recordName(relatedRecord(location, 'inbound_vessel', included)),
		departed_at: attributes.outbound_atd_at ?? null,
		departure_expected_at: attributes.outbound_etd_at ?? null,
		leaves_by: attributes.outbound_mode ?? null,
		outbound_vessel_name: recordName(relatedRecord(location, 'outbound_vessel', included)),
		...flattenResource(location, included),
	};
}

/**
 * `GET /containers/{id}/route`: one item per container, its stops in the order of the route. An
 * account without Routing Data gets 403, said in words.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { id: containerId, number } = await locatedContainer(this, itemIndex);
	let answer;
	try {
		answer = await requestRecord.call(
			this,
			'GET',
			`/containers/${encodeURIComponent(containerId)}/route`,
			routeDocument,
			'getting a container route',
			{ itemIndex },
		);
	} catch (error) {
		throw paidFeatureError(this, error, itemIndex, {
			refusal: 'This account cannot read container routes: Routing Data is a paid feature',
			instead: 'read the shipment’s ports and vessel with Shipment → Get',
		});
	}
	const { record, included, warnings } = answer;
	const locations = relatedRecords(record, 'route_locations', included);
	const json: IDataObject = {
		container_id: containerId,
		...(number ? { container_number: number } : {}),
		route_id: record.id,
		stops: locations.map((location) => stopOf(location, included)),
		...((record.attributes ?? {}) as IDataObject),
	};
	return [{ json: withWarnings(json, warnings), pairedItem: { item: itemIndex } }];
}
