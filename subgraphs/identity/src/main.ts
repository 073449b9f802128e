import { runStandalone } from '@backoffice/platform';
import { authenticatorOf, identity, resolveStore } from './index';

/** Identity alone, with the internal endpoints a gateway in another process calls. */
void runStandalone(identity, (runtime) => ({
  authenticate: async (body) => ({ actor: await authenticatorOf(runtime).authenticate(String(body.token ?? '')) }),
  store: async (body) => ({ store: await resolveStore(runtime.dataSource, String(body.ref ?? '')) }),
  audit: async (body) => {
    runtime.audit.record(body as never);
    return { recorded: true };
  },
}));
