import { defineResource } from '../operation';
import * as create from './create';
import * as deleteWebhook from './delete';
import * as get from './get';
import * as getEvents from './getEvents';
import * as getMany from './getMany';
import * as sendTestDelivery from './sendTestDelivery';
import * as update from './update';

export const webhook = defineResource({
	value: 'webhook',
	name: 'Webhook',
	operations: { create, delete: deleteWebhook, get, getEvents, getMany, sendTestDelivery, update },
	defaultOperation: 'create',
});
