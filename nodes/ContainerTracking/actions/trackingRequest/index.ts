import { defineResource } from '../operation';
import * as create from './create';
import * as findNumbers from './findNumbers';
import * as get from './get';
import * as getMany from './getMany';
import * as inferNumber from './inferNumber';

export const trackingRequest = defineResource({
	value: 'trackingRequest',
	name: 'Tracking Request',
	operations: { create, findNumbers, get, getMany, inferNumber },
	defaultOperation: 'inferNumber',
});
