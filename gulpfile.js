// Copies node and credential icons next to the compiled code in dist/, where n8n resolves
// the `file:` icon references relative to each compiled .js file.
const path = require('path');
const { task, src, dest } = require('gulp');

task('build:icons', copyIcons);

function copyIcons() {
	const nodeIcons = src(['nodes/**/*.{png,svg}'], { encoding: false }).pipe(
		dest(path.resolve('dist', 'nodes')),
	);
	const sharedIcons = src(['icons/*.{png,svg}'], { encoding: false }).pipe(
		dest(path.resolve('dist', 'icons')),
	);
	return Promise.all([streamDone(nodeIcons), streamDone(sharedIcons)]);
}

function streamDone(stream) {
	return new Promise((resolve, reject) => stream.on('finish', resolve).on('error', reject));
}
