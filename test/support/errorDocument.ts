// The body of a non-2xx answer that is JSON at all (some are HTML pages), as the tests hold the
// sandbox's and the published fixtures' errors to it. The nodes read error bodies leniently
// (nodes/ContainerTracking/transport/errors.ts), so the package ships no schema of the whole body.
import { z } from 'zod';

import { jsonApiError } from '../../nodes/ContainerTracking/schemas';

export const jsonApiErrorDocument = z
	.object({
		errors: z.array(jsonApiError),
	})
	.passthrough();
