// Whose box it is (nodes/ContainerTracking/logic/ownership.ts): the fields every item carries,
// and the Customer, Reference Number and Tags filters of Container and Shipment → Get Many.
import {
	ownership,
	ownershipFilter,
	referenceKey,
} from '../../nodes/ContainerTracking/logic/ownership';

describe('ownership fields', () => {
	it('takes the shipment’s customer, references and tags and the container’s references as sent', () => {
		expect(
			ownership(
				{
					customer_name: 'Heller, Hansen and Schumm',
					bill_of_lading_number: 'MEDUFR030802',
					ref_numbers: ['PO 4411', 'SO-19'],
					tags: ['reefer', 'Priority'],
				},
				{ ref_numbers: ['REF-2E50D1'] },
			),
		).toEqual({
			customer_name: 'Heller, Hansen and Schumm',
			bill_of_lading_number: 'MEDUFR030802',
			shipment_ref_numbers: ['PO 4411', 'SO-19'],
			shipment_tags: ['reefer', 'Priority'],
			container_ref_numbers: ['REF-2E50D1'],
		});
	});

	it('drops null entries, reads a lone string as a list of one, and gives null for a record not at hand', () => {
		expect(
			ownership({ customer_name: '  ', ref_numbers: [null, 'A-1', ''], tags: 'urgent' }, undefined),
		).toEqual({
			customer_name: null,
			bill_of_lading_number: null,
			shipment_ref_numbers: ['A-1'],
			shipment_tags: ['urgent'],
			container_ref_numbers: null,
		});
		expect(ownership(undefined, { ref_numbers: null })).toEqual({
			customer_name: null,
			bill_of_lading_number: null,
			shipment_ref_numbers: null,
			shipment_tags: null,
			container_ref_numbers: [],
		});
	});
});

describe('ownership filters', () => {
	const item = {
		customer_name: 'Acme Imports West',
		shipment_ref_numbers: ['PO 4411-B'],
		shipment_tags: ['Reefer', 'priority'],
		container_ref_numbers: ['CR_900'],
	};

	it('keeps everything when no filter is set', () => {
		expect(ownershipFilter({})(item)).toBe(true);
		expect(ownershipFilter({ customer: ' ', reference: '', tags: [] })({})).toBe(true);
	});

	it('Customer: part of the name, ignoring case', () => {
		expect(ownershipFilter({ customer: 'acme imports' })(item)).toBe(true);
		expect(ownershipFilter({ customer: 'Globex' })(item)).toBe(false);
		expect(ownershipFilter({ customer: 'acme' })({ ...item, customer_name: null })).toBe(false);
	});

	it('Reference Number: the shipment’s or the container’s, ignoring case, spaces and dashes', () => {
		expect(referenceKey('po 4411-b')).toBe('PO4411B');
		for (const typed of ['PO-4411-B', 'po4411', '4411 b', 'cr900'])
			expect(ownershipFilter({ reference: typed })(item)).toBe(true);
		expect(ownershipFilter({ reference: 'PO-4412' })(item)).toBe(false);
		expect(ownershipFilter({ reference: 'PO' })({ customer_name: 'x' })).toBe(false);
	});

	it('Tags: any one of them, ignoring case', () => {
		expect(ownershipFilter({ tags: ['REEFER', 'hazmat'] })(item)).toBe(true);
		expect(ownershipFilter({ tags: ['hazmat'] })(item)).toBe(false);
		expect(ownershipFilter({ tags: ['reefer'] })({ ...item, shipment_tags: null })).toBe(false);
	});
});
