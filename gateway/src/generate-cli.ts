import { relative } from 'node:path';
import { ROOT } from './compose';
import { writeGenerated } from './generate';

/** `npm run generate`: subgraph schemas, the supergraph, the OpenAPI document, the SDK's types and the surface views (gateway/surfaces.json), from the declarations. */
for (const file of writeGenerated()) console.log(`wrote ${relative(ROOT, file)}`);
