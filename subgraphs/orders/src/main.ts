import { remoteIdentity } from '@backoffice/identity';
import { runStandalone } from '@backoffice/platform';
import { orders } from './index';

// A bearer a router forwards is asked of identity (its /internal/authenticate), as the gateway does.
const identity = remoteIdentity(process.env.IDENTITY_URL ?? 'http://127.0.0.1:4001', process.env.CONTEXT_SECRET ?? '');

void runStandalone(orders, undefined, {}, () => identity.authenticate);
