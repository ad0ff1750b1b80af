/**
 * Whose box it is: the shipment's customer, reference numbers and tags, the container's own
 * reference numbers and the bill of lading, under the same names in every item of the node and
 * the trigger, so that an alert can be routed to the person who acts on it.
 *
 * | Field                  | From                                                          |
 * |------------------------|---------------------------------------------------------------|
 * | customer_name          | the shipment's `customer_name`; null when it has none          |
 * | bill_of_lading_number  | the shipment's `bill_of_lading_number`                         |
 * | shipment_ref_numbers   | the shipment's `ref_numbers`                                   |
 * | shipment_tags          | the shipment's `tags`                                          |
 * | container_ref_numbers  | the container's `ref_numbers`                                  |
 *
 * A list is the text entries as the service sent them, without the null entries it sometimes
 * sends (`[null]`): [] when the record has none, null when the record is not at hand (the answer
 * or the delivery did not include the shipment). A customer name is passed on as written.
 */

type Attributes = Record<string, unknown>;

export interface Ownership {
	customer_name: string | null;
	bill_of_lading_number: string | null;
	shipment_ref_numbers: string[] | null;
	shipment_tags: string[] | null;
	container_ref_numbers: string[] | null;
}

export const OWNERSHIP_FIELDS = [
	'customer_name',
	'bill_of_lading_number',
	'shipment_ref_numbers',
	'shipment_tags',
	'container_ref_numbers',
] as const satisfies ReadonlyArray<keyof Ownership>;

function textOf(value: unknown): string | null {
	return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** The text entries of a list attribute: a lone string is a list of one; anything else none. */
function textsOf(value: unknown): string[] {
	const entries = Array.isArray(value) ? value : [value];
	return entries.filter((entry): entry is string => textOf(entry) !== null);
}

/**
 * The ownership fields from a shipment's and a container's attributes, either missing (undefined)
 * when the answer or the delivery did not carry that record.
 */
export function ownership(
	shipment: Attributes | undefined,
	container: Attributes | undefined,
): Ownership {
	return {
		customer_name: shipment ? textOf(shipment.customer_name) : null,
		bill_of_lading_number: shipment ? textOf(shipment.bill_of_lading_number) : null,
		shipment_ref_numbers: shipment ? textsOf(shipment.ref_numbers) : null,
		shipment_tags: shipment ? textsOf(shipment.tags) : null,
		container_ref_numbers: container ? textsOf(container.ref_numbers) : null,
	};
}

/** A reference as people type it: case, spaces and dashes do not count ("po 4411" is "PO-4411"). */
export function referenceKey(reference: string): string {
	return reference.toUpperCase().replace(/[\s\-_./]+/g, '');
}

/** Lower case without surrounding spaces: how names and tags are compared. */
function plain(value: unknown): string {
	return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/**
 * The filters on ownership, as a test of an item carrying the fields above. Each set filter must
 * hold; unset ones keep everything.
 * - `customer`: part of the customer's name, ignoring case;
 * - `reference`: a shipment or container reference number that contains it, ignoring case,
 *   spaces and dashes;
 * - `tags`: at least one of these tags, ignoring case.
 */
export function ownershipFilter(filters: {
	customer?: string;
	reference?: string;
	tags?: string[];
}): (item: Record<string, unknown>) => boolean {
	const customer = plain(filters.customer);
	const reference = referenceKey(filters.reference ?? '');
	const tags = new Set((filters.tags ?? []).map(plain).filter(Boolean));
	return (item) => {
		if (customer && !plain(item.customer_name).includes(customer)) return false;
		if (reference) {
			const references = [
				...textsOf(item.shipment_ref_numbers),
				...textsOf(item.container_ref_numbers),
			];
			if (!references.some((entry) => referenceKey(entry).includes(reference))) return false;
		}
		if (tags.size > 0 && !textsOf(item.shipment_tags).some((tag) => tags.has(plain(tag))))
			return false;
		return true;
	};
}
