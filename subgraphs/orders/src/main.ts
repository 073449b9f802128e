import { runStandalone } from '@backoffice/platform';
import { orders } from './index';

void runStandalone(orders);
