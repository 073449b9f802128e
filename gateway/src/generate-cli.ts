import { relative } from 'node:path';
import { ROOT } from './compose';
import { writeGenerated } from './generate';

/** `npm run generate`: subgraph schemas, the supergraph and the OpenAPI document, from the declarations. */
for (const file of writeGenerated()) console.log(`wrote ${relative(ROOT, file)}`);
