import type { RESOURCES } from './router';

/**
 * Every resource and its operations as the type checker sees them, e.g.
 * `ContainerTrackingMap['webhook']` is `'create' | 'delete' | 'get' | 'getMany' | 'update'`.
 * Taken from what each resource module registers (actions/<resource>/index.ts), never written a
 * second time.
 */
export type ContainerTrackingMap = {
	[Resource in keyof typeof RESOURCES]: keyof (typeof RESOURCES)[Resource]['operations'] & string;
};
