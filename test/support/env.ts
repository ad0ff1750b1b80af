/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
// Loading n8n-core writes $N8N_USER_FOLDER/.n8n/config: point it at a throw-away folder so that
// tests never touch the developer's own n8n settings.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

if (!process.env.N8N_USER_FOLDER?.includes('ct-jest-')) {
	process.env.N8N_USER_FOLDER = mkdtempSync(path.join(tmpdir(), 'ct-jest-'));
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
