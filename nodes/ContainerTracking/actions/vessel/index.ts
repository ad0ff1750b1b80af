import { defineResource } from '../operation';
import * as get from './get';

export const vessel = defineResource({
	value: 'vessel',
	name: 'Vessel',
	operations: { get },
	defaultOperation: 'get',
});
