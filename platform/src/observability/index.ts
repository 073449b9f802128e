export * from './fastify';
export * from './logger';
export * from './metrics';
export * from './sql';
export * from './tracing';
