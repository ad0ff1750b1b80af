/**
 * What each hold name means and who clears it (docs/service.md, "Holds and fees"), in the
 * interface's own words, so an alert can tell a dispatcher whom to call.
 *
 * Names match exactly, as everywhere else (logic/readiness.ts): `usda` is not `USDA`. A name no
 * table lists has no meaning here (null): the hold still reaches the workflow, and its
 * `description` is the only text that says what it is.
 */
export interface HoldMeaning {
	hold_meaning: string | null;
	hold_resolved_by: string | null;
}

const HOLD_MEANINGS: Readonly<Record<string, { meaning: string; resolvedBy: string }>> = {
	freight: {
		meaning: 'Carrier freight charges unpaid',
		resolvedBy: 'Shipping line or freight forwarder',
	},
	customs: {
		meaning: 'Customs authority hold (documents, exam, inspection)',
		resolvedBy: 'Licensed customs broker',
	},
	USDA: {
		meaning: 'Agricultural phytosanitary inspection',
		resolvedBy: 'Customs broker or agricultural compliance team',
	},
	VACIS: {
		meaning: 'Non-intrusive scan (also called NII); its exam fee appears as a fee of type exam',
		resolvedBy: 'Customs broker',
	},
	TMF: {
		meaning: 'Terminal management fee (pier pass)',
		resolvedBy: 'Payment to the terminal',
	},
	other: {
		meaning: 'Hold that could not be mapped; see its description',
		resolvedBy: 'Terminal or broker',
	},
};

export function holdMeaning(name: unknown): HoldMeaning {
	const entry =
		typeof name === 'string' && Object.hasOwn(HOLD_MEANINGS, name) ? HOLD_MEANINGS[name] : null;
	return {
		hold_meaning: entry?.meaning ?? null,
		hold_resolved_by: entry?.resolvedBy ?? null,
	};
}
