import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import { GRAPHQL_LIMITS } from '@backoffice/platform';
import { GraphQLError, type FloatValueNode, type IntValueNode, type ListValueNode, type ObjectValueNode, type ValidationRule } from 'graphql';

// The bounds and the cost estimate live in the platform: a subgraph run alone charges bearer calls by them too.
export { documentCost, GRAPHQL_LIMITS, rateCost, rootFieldCount } from '@backoffice/platform';

/** The parser's bound on a document's size, as Apollo Server's `parseOptions`. */
export const PARSE_OPTIONS = { maxTokens: GRAPHQL_LIMITS.maxTokens };

/** Armor's checks, as Apollo Server options (plugins and validation rules). */
export function armorOptions<C extends BaseContext>(): { plugins: ApolloServerPlugin<C>[]; validationRules: ValidationRule[] } {
  const armor = new ApolloArmor({
    // Apollo's own parser counts tokens (parseOptions below): a refusal there is a clean parse error.
    maxTokens: { enabled: false },
    maxDepth: { n: GRAPHQL_LIMITS.maxDepth, flattenFragments: true },
    maxAliases: { n: GRAPHQL_LIMITS.maxAliases },
    maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
    // Our own cost (below) knows page sizes; Armor's static estimate does not.
    costLimit: { enabled: false },
    // The schema is public (introspection is on), so suggestions hide nothing.
    blockFieldSuggestion: { enabled: false },
  });
  const { plugins, validationRules } = armor.protect();
  return { plugins: plugins as ApolloServerPlugin<C>[], validationRules: [...(validationRules as ValidationRule[]), numberLiteralRule, literalDepthRule] };
}

/**
 * Number literals must be finite and within the safe-integer range, as JSON numbers must (an
 * input's `1e400` would otherwise reach the query planner as Infinity, which it cannot send on).
 */
export const numberLiteralRule: ValidationRule = (context) => {
  const check = (node: IntValueNode | FloatValueNode) => {
    const value = Number(node.value);
    if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER) {
      // The literal is not quoted: it may be a secret (the location says where it is).
      context.reportError(new GraphQLError(`a number literal is not finite or lies outside ±${Number.MAX_SAFE_INTEGER}`, { nodes: [node] }));
    }
  };
  return { IntValue: check, FloatValue: check };
};

/**
 * Object and list literals in a document nest at most LITERAL_MAX_DEPTH levels; deeper JSON goes in
 * variables (which the body and input bounds cover). Checked before planning: the federation query
 * planner walks a literal's lists in time that doubles with each level: a small document nested deep
 * enough would block the gateway for good (docs/decisions/graphql-limits.md).
 */
export const LITERAL_MAX_DEPTH = 12;

export const literalDepthRule: ValidationRule = (context) => {
  let depth = 0;
  let reported = false;
  const enter = (node: ObjectValueNode | ListValueNode) => {
    depth++;
    if (depth > LITERAL_MAX_DEPTH && !reported) {
      reported = true;
      context.reportError(new GraphQLError(`a literal value nests deeper than ${LITERAL_MAX_DEPTH} levels: pass deeper JSON as a variable`, { nodes: [node] }));
    }
  };
  const leave = () => {
    depth--;
  };
  return { ObjectValue: { enter, leave }, ListValue: { enter, leave } };
};

/** The refusal of an answer past `maxAnswerBytes`, as /graphql answers a refused request. */
const tooLarge = (bytes: number) =>
  JSON.stringify({
    errors: [
      {
        message: `the answer is ${bytes} bytes, over the limit of ${GRAPHQL_LIMITS.maxAnswerBytes}: select fewer fields or ask for a smaller page`,
        extensions: { code: 'validation_failed' },
      },
    ],
  });

/**
 * Bounds the bytes of every /graphql answer (Apollo's and the lane's alike) as a second line behind
 * the cost estimate: one over `maxAnswerBytes` is replaced whole by a refusal, never sent in part.
 * A hook of the /graphql route alone, registered before it.
 */
export function boundAnswers(app: FastifyInstance, refused: (requestId: string, bytes: number) => void): void {
  app.addHook('onRoute', (route) => {
    if (route.url !== '/graphql') return;
    const own = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    const bound: onSendHookHandler = async (_request, reply, payload) => {
      // A string's bytes are at most three per UTF-16 unit: most answers need no count.
      const bytes =
        typeof payload === 'string'
          ? payload.length * 3 <= GRAPHQL_LIMITS.maxAnswerBytes
            ? 0
            : Buffer.byteLength(payload)
          : Buffer.isBuffer(payload)
            ? payload.length
            : 0;
      if (bytes <= GRAPHQL_LIMITS.maxAnswerBytes) return payload;
      refused(String(reply.getHeader('x-request-id')), bytes);
      reply.code(400).header('content-type', 'application/json; charset=utf-8');
      return tooLarge(bytes);
    };
    route.onSend = [...own, bound];
  });
}
