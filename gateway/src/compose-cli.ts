import { writeFileSync } from 'node:fs';
import { composeSupergraph, SUPERGRAPH_FILE } from './compose';

/** `npm run compose`: supergraph.yaml → supergraph.graphql. */
try {
  writeFileSync(SUPERGRAPH_FILE, composeSupergraph());
  console.log('wrote supergraph.graphql');
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
