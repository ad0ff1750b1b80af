import type { Resource } from './store';

/** A container's journey as generated from its number: places, vessel, and what will happen. */
export interface ContainerPlan {
	containerId: string;
	shipmentId: string;
	/** When the service started tracking the container (sandbox epoch ms). */
	trackedAt: number;
	pol: Resource;
	pod: Resource;
	podTerminal: Resource;
	vessel: Resource;
	voyageNumber: string;
	/** Estimated arrival at the port of discharge when tracking starts (epoch ms). */
	etaAt: number;
	/** Inland rail move after discharge, or null for a container picked up at the port. */
	inland: null | {
		metro: Resource;
		railTerminal: Resource;
		railCarrierScac: string;
		/** An intermediate interchange, where `rail_arrived` fires before the destination. */
		interchange: null | { metro: Resource; railTerminal: Resource };
	};
	/** `pickup`: picked up before the last free day; `demurrage`: sits past it. */
	outcome: 'pickup' | 'demurrage';
	/**
	 * The empty comes back 7 days after pickup, past the demo tariff's detention free days
	 * (sandbox/demoTariff.ts), instead of 2 or 3: a third of the boxes, by number.
	 */
	staysOut: boolean;
	/** A VACIS scan, with its exam fee, after customs puts the box on hold. */
	vacisExam: boolean;
	/** The line holds the box until freight is paid. */
	freightHold: boolean;
	/** Whether the shipping line reports a last free day (carrier dependent). */
	lineReportsLastFreeDay: boolean;
	freeDays: number;
	/** Daily demurrage once the last free day has passed, in USD. */
	demurragePerDay: number;
	/** Events before tracking started, already in the past. */
	history: Array<{
		event: string;
		at: number;
		place: 'pol' | 'pod';
		dataSource: 'shipping_line' | 'terminal' | 'ais';
		withVessel: boolean;
	}>;
}
