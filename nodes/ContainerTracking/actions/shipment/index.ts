import { defineResource } from '../operation';
import * as get from './get';

export const shipment = defineResource({
	value: 'shipment',
	name: 'Shipment',
	operations: { get },
	defaultOperation: 'get',
});
