import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Closing a server closes the connections idle at that moment only: one whose answer ends later, or
 * one answered before its request's body was read (a refusal), would hold the stop for the keep-alive
 * timeout (72 s). While the app closes, a connection with no answer under way is ended within 100 ms.
 */
export function closeConnectionsWhenIdle(app: FastifyInstance): void {
  const sockets = new Set<Socket>();
  const answering = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A hook, not a second 'request' listener: tracing wraps the server's one listener.
  app.addHook('onRequest', async (request, reply) => {
    const socket = request.raw.socket;
    answering.add(socket);
    reply.raw.once('close', () => answering.delete(socket));
  });
  app.addHook('preClose', async () => {
    const sweep = setInterval(() => {
      for (const socket of sockets) if (!answering.has(socket)) socket.destroy();
    }, 100);
    app.server.once('close', () => clearInterval(sweep));
  });
}
