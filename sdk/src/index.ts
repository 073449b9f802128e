export { BackofficeClient, BackofficeError, queryOf, type CallOptions, type ClientOptions } from './client.js';
export * from './operations.js';
