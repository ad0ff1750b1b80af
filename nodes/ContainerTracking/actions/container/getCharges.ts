import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { containerCharges } from '../../logic/charges';
import { lastFreeDay } from '../../logic/lastFreeDay';
import { ownership } from '../../logic/ownership';
import { readTariffRows, type BoxKind } from '../../logic/tariff';
import { indexIncluded, relatedRecord } from '../../records/jsonApi';
import { membersOf, type ContainerAttributes } from '../../schemas';
import { isRecord, toNumber } from '../../schemas/values';
import type { DataWarning } from '../../schemas/warnings';
import { commaList, showFor, withWarnings } from '../common';
import { containerLocator, locatedContainer } from '../locators';
import type { OperationOption } from '../operation';
import { DEFAULT_INCLUDES, readContainer } from './get';

/*
 * The tariff is the user's (docs/charges.md): typed into the node, or handed over by the
 * workflow (a Data Table or a sheet read by an earlier node, one row per tier), because rates
 * live in each importer's contracts and the service reports none.
 */

export const option: OperationOption = {
	name: 'Get Charges',
	action: 'Work out demurrage and detention of a container',
	description:
		'Work out what a container costs in demurrage and detention from your tariff: so far, from tomorrow, and if picked up or returned on a date',
};

export const toolDescription =
	'Use this when someone asks what a container will cost in demurrage or detention, or what waiting one more day costs (e.g. "what will MSKU7654328 cost if we pick it up on Friday?"). Returns, per container, where it stands, free days left, charges so far and for a given pickup or return date, in the tariff\'s currency, and what could not be worked out.';

const OPERATION = 'getCharges';
const show = showFor('container', OPERATION);

const TYPED_ROW_FIELDS: INodeProperties[] = [
	{
		displayName: 'Charge',
		name: 'charge',
		type: 'options',
		options: [
			{
				name: 'Demurrage',
				value: 'demurrage',
				description: 'After the last free day, until pickup',
			},
			{
				name: 'Detention (Per Diem)',
				value: 'detention',
				description: 'From pickup, after its free days, until the empty is returned',
			},
			{
				name: 'Combined',
				value: 'combined',
				description: 'One free time from discharge until the empty is returned',
			},
		],
		default: 'demurrage',
	},
	{
		displayName: 'Shipping Line',
		name: 'shippingLine',
		type: 'string',
		default: '',
		placeholder: 'e.g. MAEU',
		description: 'SCAC or name of the line; empty for any line',
	},
	{
		displayName: 'Terminal',
		name: 'terminal',
		type: 'string',
		default: '',
		placeholder: 'e.g. Pier 400 or its FIRMS code Y773',
		description:
			'Name, nickname or code (FIRMS, SMDG, BIC) of the terminal or rail ramp; empty for any',
	},
	{
		displayName: 'Container Size',
		name: 'containerSize',
		type: 'string',
		default: '',
		placeholder: 'e.g. 40 or 40HC',
		description: 'Length in feet, HC for high cube only; empty for any size',
	},
	{
		displayName: 'Container Type',
		name: 'containerType',
		type: 'string',
		default: '',
		placeholder: 'e.g. dry or reefer',
		description: 'Dry, reefer, open top, flat rack, bulk or tank; empty for any type',
	},
	{
		displayName: 'Free Days',
		name: 'freeDays',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description:
			'Detention and combined: days free from pickup (or discharge), that day being day 1. Demurrage ignores it: its free time ends on the last free day the service reports.',
	},
	{
		displayName: 'From Day',
		name: 'fromDay',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 1,
		description: 'First charged day of this rate: day 1 is the first day after the free time',
	},
	{
		displayName: 'To Day',
		name: 'toDay',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: 'Last charged day of this rate; 0 for no end',
	},
	{
		displayName: 'Rate Per Day',
		name: 'ratePerDay',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 0,
	},
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		default: 'USD',
		placeholder: 'e.g. USD',
	},
	{
		displayName: 'Day Count',
		name: 'dayCount',
		type: 'options',
		options: [
			{ name: 'Calendar Days', value: 'calendar' },
			{
				name: 'Working Days',
				value: 'working',
				description: 'Weekends and the holidays below are neither free nor charged',
			},
		],
		default: 'calendar',
	},
];

const locator = containerLocator(OPERATION);

export const description: INodeProperties[] = [
	{
		displayName: 'Container From',
		name: 'containerSource',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Number or ID',
				value: 'locator',
				description: 'Read the container from the service',
			},
			{
				name: 'The Input Item',
				value: 'input',
				description:
					'A whole container from Get or Get Many with Simplify off: no call to the service',
			},
		],
		default: 'locator',
		displayOptions: show,
	},
	{
		...locator,
		displayOptions: { show: { ...locator.displayOptions!.show, containerSource: ['locator'] } },
	},
	{
		displayName: 'Tariff',
		name: 'tariffSource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Typed Here', value: 'typed', description: 'One row per rate, typed in this node' },
			{
				name: 'From Earlier Nodes',
				value: 'input',
				description: 'The rows a Data Table or sheet node read, through an expression',
			},
		],
		default: 'typed',
		displayOptions: show,
	},
	{
		displayName: 'Tariff Rows',
		name: 'tariffRows',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Rate',
		default: {},
		description:
			'One row per rate: rows with the same charge and the same line, terminal, size and type are one tariff, tier by tier',
		displayOptions: { show: { ...show!.show, tariffSource: ['typed'] } },
		options: [{ displayName: 'Rate', name: 'row', values: TYPED_ROW_FIELDS }],
	},
	{
		displayName: 'Tariff Rows',
		name: 'tariffRowsInput',
		type: 'json',
		default: '',
		placeholder: "{{ $('Tariff').all().map(row => row.json) }}",
		description:
			'The rows, one per rate, with columns Charge, Shipping Line, Terminal, Container Size, Container Type, Free Days, From Day, To Day, Rate Per Day, Currency, Day Count. For a Data Table node named Tariff, the expression the field shows.',
		displayOptions: { show: { ...show!.show, tariffSource: ['input'] } },
	},
	{
		displayName: 'Holidays',
		name: 'holidays',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2026-12-25, 2027-01-01',
		description: 'Dates that are not working days, for rates that count working days',
		displayOptions: show,
	},
	{
		displayName: 'Pickup or Return Date',
		name: 'whatIfDate',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2026-12-11, tomorrow or Friday',
		description:
			'What the charges are if the box is picked up on this date, or, once it is out, if the empty is returned on it. Empty for none.',
		displayOptions: show,
	},
];

function fieldError(
	context: IExecuteFunctions,
	itemIndex: number,
	label: string,
	message: string,
	fix: string,
): NodeOperationError {
	return new NodeOperationError(context.getNode(), `${message} (field "${label}")`, {
		itemIndex,
		description: fix,
	});
}

/** The tariff's rows as given: typed, or the value of the expression (a list, or its JSON). */
function givenRows(context: IExecuteFunctions, itemIndex: number): unknown[] {
	const source = context.getNodeParameter('tariffSource', itemIndex, 'typed') as string;
	if (source === 'typed') {
		const typed = context.getNodeParameter('tariffRows.row', itemIndex, []) as IDataObject[];
		// A typed To Day of 0 is no end.
		return typed.map((row) => (row.toDay === 0 ? { ...row, toDay: null } : row));
	}
	let value = context.getNodeParameter('tariffRowsInput', itemIndex, '') as unknown;
	if (typeof value === 'string' && value.trim() !== '') {
		try {
			value = JSON.parse(value);
		} catch {
			throw fieldError(
				context,
				itemIndex,
				'Tariff Rows',
				'The tariff rows are neither a list nor JSON',
				"Give a list of rows, e.g. {{ $('Tariff').all().map(row => row.json) }} for a Data Table node named Tariff.",
			);
		}
	}
	if (Array.isArray(value)) return value.map((row) => membersOf(row).json ?? row);
	if (value === '' || value === null || value === undefined) return [];
	return [value];
}

function holidaysOf(context: IExecuteFunctions, itemIndex: number): Set<string> {
	const dates = commaList(context.getNodeParameter('holidays', itemIndex, ''));
	const wrong = dates.filter((date) => !/^\d{4}-\d{2}-\d{2}$/.test(date));
	if (wrong.length > 0)
		throw fieldError(
			context,
			itemIndex,
			'Holidays',
			`"${wrong[0]}" is not a date`,
			'Give dates as year-month-day, separated by commas: 2026-12-25, 2027-01-01.',
		);
	return new Set(dates);
}

function texts(...values: unknown[]): string[] {
	return values.filter(
		(value): value is string => typeof value === 'string' && value.trim() !== '',
	);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { rows, problems } = readTariffRows(givenRows(this, itemIndex));
	if (problems.length > 0)
		throw fieldError(
			this,
			itemIndex,
			'Tariff Rows',
			problems[0],
			problems.length > 1 ? `Also: ${problems.slice(1).join('; ')}.` : 'Correct that row.',
		);
	if (rows.length === 0)
		throw fieldError(
			this,
			itemIndex,
			'Tariff Rows',
			'The tariff has no rows',
			'Add a rate for demurrage and one for detention (or one combined), or map the rows of your tariff table.',
		);
	const holidays = holidaysOf(this, itemIndex);
	const whatIf = String(this.getNodeParameter('whatIfDate', itemIndex, '') ?? '').trim();

	const read = await readBox(this, itemIndex);
	const { attributes } = read;
	const place = lastFreeDay(attributes).last_free_day_place;
	const terminal = place === 'inland_destination' ? read.pickupFacility : read.podTerminal;
	const shipment = read.shipment ?? {};
	const box: BoxKind = {
		shipping_line: texts(
			shipment.shipping_line_scac,
			shipment.shipping_line_name,
			shipment.shipping_line_short_name,
		),
		terminal: texts(
			terminal?.name,
			terminal?.nickname,
			terminal?.firms_code,
			terminal?.smdg_code,
			terminal?.bic_facility_code,
		),
		size_feet: toNumber(attributes.equipment_length),
		high_cube: attributes.equipment_height === 'high_cube',
		container_type: texts(attributes.equipment_type)[0] ?? null,
	};

	let charges;
	try {
		charges = containerCharges(attributes, box, rows, { now: new Date(), holidays, whatIf });
	} catch (error) {
		throw fieldError(
			this,
			itemIndex,
			'Pickup or Return Date',
			(error as Error).message,
			'Use year-month-day (2026-12-11), today, tomorrow or a weekday.',
		);
	}
	const json: IDataObject = {
		number: attributes.number ?? null,
		...ownership(read.shipment ?? undefined, attributes),
		shipping_line: box.shipping_line[0] ?? null,
		terminal: texts(terminal?.name)[0] ?? null,
		equipment_length: box.size_feet,
		equipment_type: box.container_type,
		...(charges as unknown as IDataObject),
		container_id: read.id,
	};
	return [{ json: withWarnings(json, read.warnings), pairedItem: { item: itemIndex } }];
}

interface BoxRead {
	id: string | null;
	attributes: ContainerAttributes;
	shipment: Record<string, unknown> | null;
	podTerminal: Record<string, unknown> | null;
	pickupFacility: Record<string, unknown> | null;
	warnings: DataWarning[];
}

/**
 * The container, its shipment and terminals: read from the service by number or id, or taken
 * from the input item when it is a whole container (Get or Get Many with Simplify off), which
 * costs no call: a digest over Get Many's page reads charges page by page, not box by box.
 */
async function readBox(context: IExecuteFunctions, itemIndex: number): Promise<BoxRead> {
	const source = context.getNodeParameter('containerSource', itemIndex, 'locator') as string;
	if (source === 'input') {
		const json = context.getInputData()[itemIndex]?.json ?? {};
		if (!('import_deadlines' in json || 'pickup_lfd' in json) || !('pod_timezone' in json))
			throw fieldError(
				context,
				itemIndex,
				'Container',
				'The input item is not a whole container: it lacks its last free days and time zones',
				'Turn Simplify off in the Get or Get Many node that gives the containers, or pick the container by number.',
			);
		const related = (name: string) => (isRecord(json[name]) ? (json[name] as IDataObject) : null);
		return {
			id: typeof json.id === 'string' ? json.id : null,
			attributes: json as unknown as ContainerAttributes,
			shipment: related('shipment'),
			podTerminal: related('pod_terminal'),
			pickupFacility: related('pickup_facility'),
			warnings: [],
		};
	}
	const { id } = await locatedContainer(context, itemIndex);
	const read = await readContainer(context, id, DEFAULT_INCLUDES, itemIndex);
	if (read.raw) throw new Error('a raw read was not asked for');
	const { document, warnings } = read;
	const included = indexIncluded(document.included);
	const attributesOf = (relationship: string) => {
		const record = relatedRecord(document.data, relationship, included);
		return record ? membersOf(record.attributes) : null;
	};
	return {
		id: document.data.id,
		attributes: membersOf(document.data.attributes) as ContainerAttributes,
		shipment: attributesOf('shipment'),
		podTerminal: attributesOf('pod_terminal'),
		pickupFacility: attributesOf('pickup_facility'),
		warnings: warnings.forRecord(),
	};
}
