import { BackofficeClient, BackofficeError, type OperationName } from '../../../sdk/src';

/** A failure the CLI reports as `kind: message`: the server's error kind, or `unreachable`. */
export class CliError extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The one way the CLI talks HTTP: an operation by name, through the SDK (sdk/: commands POST, reads
 * GET, retries on 429). Its failures come back as CliErrors.
 */
export async function callOperation(url: string, token: string | undefined, name: string, input: Record<string, unknown>): Promise<unknown> {
  try {
    // Names and inputs come from the command line, so the SDK's compile-time types cannot hold: the
    // server refuses a name it does not know and validates the input.
    return await new BackofficeClient({ baseUrl: url, token }).call(name as OperationName, input as never);
  } catch (error) {
    // No answer (refused, no such host, a URL fetch cannot use): the SDK's `unreachable`.
    if (error instanceof BackofficeError && error.kind === 'unreachable') {
      throw new CliError('unreachable', `cannot reach the back office at ${url} (start it with npm start, or set BACKOFFICE_URL)`);
    }
    // No key sent: say where one goes.
    if (error instanceof BackofficeError && error.kind === 'unauthorized' && !token) {
      throw new CliError('unauthorized', `${error.message}: no token given (pass --token <key> or set BACKOFFICE_TOKEN)`);
    }
    if (error instanceof BackofficeError) throw new CliError(error.kind, error.message);
    // Something answered, but not the gateway's JSON (a proxy's error page).
    throw new CliError('internal', `unexpected answer from ${url}: ${(error as Error).message}`);
  }
}
