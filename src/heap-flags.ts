import { relaunchWithHeapFlags } from './common/heap.js';

// The first module main.ts imports, so that it runs before the others are evaluated: started
// without the server's V8 flags, the process starts itself again with them at once, before it
// has spent time loading the application (src/common/heap.ts).
relaunchWithHeapFlags();
