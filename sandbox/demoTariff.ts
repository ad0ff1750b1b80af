/**
 * The demo's tariff: the rates a forwarder would keep in a table, one row per rate, with the
 * columns Container → Get Charges reads (docs/charges.md, "Your tariff"). `npm start` puts them in
 * the Data Table _Tariff_, which the example Money at risk reads; `GET /_sandbox/tariff` serves
 * them. Any line's boxes have a row; Maersk's have their own, more specific ones. The detention
 * free days (4, Maersk 5) are shorter than the 7 days a box that stays out keeps its empty
 * (ContainerPlan.staysOut), so that per diem shows.
 */
export interface DemoTariffRow {
	charge: 'demurrage' | 'detention';
	shipping_line: string;
	container_size: string;
	free_days: number | null;
	from_day: number;
	to_day: number | null;
	rate_per_day: number;
	currency: string;
	day_count: 'calendar' | 'working';
}

const row = (
	charge: DemoTariffRow['charge'],
	shipping_line: string,
	free_days: number | null,
	from_day: number,
	to_day: number | null,
	rate_per_day: number,
	container_size = '',
): DemoTariffRow => ({
	charge,
	shipping_line,
	container_size,
	free_days,
	from_day,
	to_day,
	rate_per_day,
	currency: 'USD',
	day_count: 'calendar',
});

export const DEMO_TARIFF: readonly DemoTariffRow[] = [
	row('demurrage', '', null, 1, 4, 150),
	row('demurrage', '', null, 5, null, 300),
	row('detention', '', 4, 1, 5, 100),
	row('detention', '', 4, 6, null, 175),
	row('demurrage', 'MAEU', null, 1, 3, 200, '40'),
	row('demurrage', 'MAEU', null, 4, null, 350, '40'),
	row('detention', 'MAEU', 5, 1, null, 125),
];
