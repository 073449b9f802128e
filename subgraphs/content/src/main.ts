import { runStandalone } from '@backoffice/platform';
import { content } from './index';

void runStandalone(content);
