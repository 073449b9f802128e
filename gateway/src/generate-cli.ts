import { relative } from 'node:path';
import { ROOT } from './compose';
import { writeGenerated } from './generate';

/** `npm run generate`: subgraph schemas, the supergraph, the OpenAPI document and the SDK's types, from the declarations. */
for (const file of writeGenerated()) console.log(`wrote ${relative(ROOT, file)}`);
