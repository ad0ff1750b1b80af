import { defineResource } from '../operation';
import * as get from './get';
import * as getMany from './getMany';
import * as resumeTracking from './resumeTracking';
import * as stopTracking from './stopTracking';

export const shipment = defineResource({
	value: 'shipment',
	name: 'Shipment',
	operations: { get, getMany, resumeTracking, stopTracking },
	defaultOperation: 'get',
});
