import { defineResource } from '../operation';
import * as get from './get';
import * as getCharges from './getCharges';
import * as getMany from './getMany';
import * as getRawEvents from './getRawEvents';
import * as getRoute from './getRoute';
import * as getTransportEvents from './getTransportEvents';
import * as refresh from './refresh';

export const container = defineResource({
	value: 'container',
	name: 'Container',
	operations: { get, getCharges, getMany, getRawEvents, getRoute, getTransportEvents, refresh },
	defaultOperation: 'get',
});
