import { runStandalone } from '@backoffice/platform';
import { catalog } from './index';
import { remoteDirectory } from './stores';

void runStandalone(catalog, undefined, {
  stores: remoteDirectory(process.env.IDENTITY_URL ?? 'http://127.0.0.1:4001', process.env.CONTEXT_SECRET ?? ''),
});
