import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// What the system keeps under DATA_DIR when tests start it (generated keys, mail written as .eml
// files without SMTP) goes to a folder of the test run, never the checkout's ./.data.
process.env.DATA_DIR ??= mkdtempSync(join(tmpdir(), 'bo-test-data-'));
