/**
 * Whose boxes the sandbox's shipments are. The service's accounts name a customer on most
 * shipments (every published delivery that includes one has it) and leave it out on some; a
 * forwarder's customers share tags, and their references are typed with spaces and dashes.
 *
 * A shipment's customer is drawn from its own seed (not from the shipment generator's stream, so
 * that the rest of a generated shipment stays as it was): one in four has none. A user names or
 * changes it at the service as `PATCH /_sandbox/shipments/:id` does.
 */
import { SeededRandom } from './random';

export const SANDBOX_CUSTOMERS = [
	'Acme Imports',
	'Blue Harbor Foods',
	'Globex Retail, Inc.',
	'Kestrel Outdoor Co.',
	'Northwind Traders',
	'Ridgeway Furniture',
] as const;

/** The customer a newly tracked shipment has: one of SANDBOX_CUSTOMERS, or null one time in four. */
export function customerFor(scac: string, number: string): string | null {
	const random = new SeededRandom(`customer:${scac}:${number}`);
	return random.next() < 0.25 ? null : random.pick(SANDBOX_CUSTOMERS);
}
