import { remoteIdentity } from '@backoffice/identity';
import { runStandalone } from '@backoffice/platform';
import { catalog } from './index';
import { remoteDirectory } from './stores';

const identityUrl = process.env.IDENTITY_URL ?? 'http://127.0.0.1:4001';
const secret = process.env.CONTEXT_SECRET ?? '';
// A bearer a router forwards is asked of identity (its /internal/authenticate), as the gateway does.
const identity = remoteIdentity(identityUrl, secret);

void runStandalone(catalog, undefined, { stores: remoteDirectory(identityUrl, secret) }, () => identity.authenticate);
