// The n8n editor as scripts drive it with playwright-core (scripts/screenshots.mjs,
// scripts/walkthrough.mjs): selectors and steps verified on n8n 2.41.3's editor.

import { chromium } from 'playwright-core';

/** The window every script's pages are laid out in (1440 × 900 CSS pixels). */
export const VIEWPORT = { width: 1440, height: 900 };
// Without the background-networking flags Chromium's own connections are refused by a closed
// network and slow everything down.
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/**
 * Headless Chromium at `executablePath` with its profile in `userDataDir`, VIEWPORT-sized, in
 * English and UTC. The caller closes it (Playwright's own signal handlers would exit the process
 * as soon as the browser is closed).
 */
export async function launchBrowser(executablePath, userDataDir) {
	const context = await chromium.launchPersistentContext(userDataDir, {
		executablePath,
		headless: true,
		args: CHROMIUM_ARGS,
		handleSIGINT: false,
		handleSIGTERM: false,
		handleSIGHUP: false,
		viewport: VIEWPORT,
		deviceScaleFactor: 1,
		locale: 'en-US',
		timezoneId: 'UTC',
	});
	context.setDefaultTimeout(30_000);
	return context;
}

export const byTestId = (page, id) => page.locator(`[data-test-id="${id}"]`);
export const canvasNode = (page, name) =>
	page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);

/** Closes onboarding, "what's new" and survey dialogs and toasts, if any are showing. */
export async function dismissPopups(page) {
	for (let round = 0; round < 3; round++) {
		const closers = page.locator(
			[
				'.el-overlay:visible .el-dialog__headerbtn',
				'.el-message-box__headerbtn:visible',
				'.el-notification:visible .el-notification__closeBtn',
				'[data-test-id="version-updates-panel"]:visible [aria-label="Close"]',
			].join(', '),
		);
		// n8n 2.41 opens its Production Checklist popover after a workflow's first publish; a
		// popover closes on Escape, as in the editor.
		const checklist = page.getByText('Production Checklist', { exact: true });
		const checklistOpen = await checklist.isVisible().catch(() => false);
		if (checklistOpen) {
			await page.keyboard.press('Escape');
			await page.waitForTimeout(400);
		}
		const count = await closers.count();
		if (count === 0 && !checklistOpen) return;
		for (let index = count - 1; index >= 0; index--)
			await closers
				.nth(index)
				.click({ timeout: 2000 })
				.catch(() => undefined);
		await page.waitForTimeout(400);
	}
}

/** Opens a node's settings (the NDV) by double-clicking it on the canvas. */
export async function openNode(page, name) {
	const node = canvasNode(page, name);
	// The Execute workflow button floats over the canvas's bottom middle, and a node fitted under
	// it cannot be clicked: the button's bar is then let click through, as nothing else needs it.
	const opened = await node
		.dblclick({ timeout: 5_000 })
		.then(() => true)
		.catch(() => false);
	if (!opened) {
		await page.addStyleTag({
			content: '[class*="executionButtons"] { pointer-events: none !important; }',
		});
		await node.dblclick();
	}
	await byTestId(page, 'ndv').waitFor({ timeout: 30_000 });
	await page.waitForTimeout(800);
}

export async function closeNode(page) {
	await byTestId(page, 'ndv-close-button').click();
	await byTestId(page, 'ndv').waitFor({ state: 'hidden' });
}
