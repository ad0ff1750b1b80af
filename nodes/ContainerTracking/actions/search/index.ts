import { defineResource } from '../operation';
import * as byNumber from './byNumber';

export const search = defineResource({
	value: 'search',
	name: 'Search',
	operations: { byNumber },
	defaultOperation: 'byNumber',
});
