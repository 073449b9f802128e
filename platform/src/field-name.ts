/**
 * `iam.api_key.rotate` → `iam_api_key_rotate`: the GraphQL field of an operation (and its MCP tool
 * name under MCP_TOOL_NAMES=underscore). A module of its own: MCP over stdio uses it without loading the platform.
 */
export function fieldName(operationName: string): string {
  return operationName.replace(/\./g, '_');
}
