export * from './autop.js';
export * from './html-filter.js';
export * from './render.js';
export * from './sanitize.js';
export * from './slug.js';
export * from './texturize.js';
export * from './control-chars.js';
