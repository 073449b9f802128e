import { runStandalone } from '@backoffice/platform';
import { catalog } from './index';

void runStandalone(catalog);
