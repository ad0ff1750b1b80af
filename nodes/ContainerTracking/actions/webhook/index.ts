import { defineResource } from '../operation';
import * as create from './create';
import * as deleteWebhook from './delete';
import * as get from './get';
import * as getMany from './getMany';
import * as update from './update';

export const webhook = defineResource({
	value: 'webhook',
	name: 'Webhook',
	operations: { create, delete: deleteWebhook, get, getMany, update },
	defaultOperation: 'create',
});
