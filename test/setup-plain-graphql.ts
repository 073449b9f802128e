// The graphql-plain project: the GraphQL tests again, every /graphql request on plain @apollo/gateway.
process.env.GRAPHQL_FAST_PATH = 'off';
