import type { FastifyRequest } from 'fastify';

/** Whether the client takes gzip (`Accept-Encoding: gzip`, not `gzip;q=0`). */
export const takesGzip = (request: FastifyRequest): boolean =>
  String(request.headers['accept-encoding'] ?? '')
    .split(',')
    .some((part) => /^\s*gzip\s*(;\s*q\s*=\s*(?!0(\.0*)?\s*$)[\d.]+\s*)?$/i.test(part));

/** The strong tag of a representation's gzip form: another tag, as the bytes differ (RFC 9110 8.8.3). */
export const gzipTag = (etag: string): string => `${etag.slice(0, -1)}-gz"`;
