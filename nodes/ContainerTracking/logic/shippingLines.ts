/**
 * The shipping lines the service knows well enough to predict (docs/service.md, "Shipping lines"):
 * the Shipping Line choices of Tracking Request → Create. What the sandbox predicts them from,
 * their container and bill of lading prefixes, is in sandbox/world/shippingLines.ts.
 */
export interface ShippingLine {
	scac: string;
	name: string;
}

export const SHIPPING_LINES = [
	{ scac: 'MSCU', name: 'MSC' },
	{ scac: 'MAEU', name: 'Maersk' },
	{ scac: 'CMDU', name: 'CMA CGM' },
	{ scac: 'HLCU', name: 'Hapag-Lloyd' },
	{ scac: 'COSU', name: 'COSCO' },
	{ scac: 'ONEY', name: 'Ocean Network Express' },
	{ scac: 'EGLV', name: 'Evergreen' },
	{ scac: 'OOLU', name: 'OOCL' },
	{ scac: 'YMLU', name: 'Yang Ming' },
	{ scac: 'HDMU', name: 'HMM' },
	{ scac: 'ZIMU', name: 'ZIM' },
	{ scac: 'WHLC', name: 'Wan Hai' },
	{ scac: 'TEST', name: 'Test carrier' },
] as const satisfies readonly ShippingLine[];
