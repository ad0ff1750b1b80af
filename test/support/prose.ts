// Prose of any size for Find Numbers in Text: its unit test and its benchmark (bench/findNumbers.ts).

/** A seeded generator, so that a failure can be replayed. */
export function random(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

const WORDS =
	`the a of to and in for on with at by from as is was are be this that it we you your our
please find attached below arrival notice vessel voyage port discharge loading terminal customs
clearance release hold exam free time days demurrage detention charges invoice payment due
shipment cargo pallets cartons weight volume kg cbm seal container containers booking bill
lading order purchase reference number date estimated arrival departure delay schedule berth
yard gate pickup delivery truck rail ramp warehouse consignee shipper notify party agent broker
regards thanks kind best team office phone email fax menu you thou tofu emu guru haiku bureau
plateau quiz jazz fizz buzz hajj raj taj`.split(/\s+/);
const ACRONYMS = [
	'ETA',
	'ETD',
	'POD',
	'POL',
	'USD',
	'EUR',
	'FCL',
	'LCL',
	'CFS',
	'THC',
	'BAF',
	'ISF',
	'CBP',
	'HC',
	'GP',
];

/** Prose of about `size` characters: words, acronyms, numbers of every length, dates, amounts. */
export function prose(size: number, next: () => number): string {
	const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
	const digits = (length: number) => Array.from({ length }, () => Math.floor(next() * 10)).join('');
	const parts: string[] = [];
	let length = 0;
	let sentenceStart = true;
	while (length < size) {
		const roll = next();
		let part: string;
		if (roll < 0.7) part = pick(WORDS);
		else if (roll < 0.78) part = pick(ACRONYMS);
		else if (roll < 0.9) part = digits(1 + Math.floor(next() * 12));
		else if (roll < 0.93) part = `${digits(4)}-${digits(2)}-${digits(2)}`;
		else if (roll < 0.96) part = `+${digits(2)} ${digits(3)} ${digits(7)}`;
		else part = `${digits(1 + Math.floor(next() * 3))},${digits(3)}.${digits(2)}`;
		if (sentenceStart) part = part[0].toUpperCase() + part.slice(1);
		sentenceStart = next() < 0.08;
		parts.push(part + (sentenceStart ? '.' : next() < 0.05 ? ',' : ''));
		if (next() < 0.02) parts.push('\n');
		length += part.length + 1;
	}
	return parts.join(' ');
}
