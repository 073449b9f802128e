import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import { parse as parseYaml } from 'yaml';

export const ROOT = resolve(__dirname, '..', '..');
export const SUPERGRAPH_YAML = join(ROOT, 'supergraph.yaml');
export const SUPERGRAPH_FILE = join(ROOT, 'supergraph.graphql');

interface SupergraphConfig {
  federation_version: string;
  subgraphs: Record<string, { routing_url: string; schema: { file: string } }>;
}

export function readSupergraphConfig(file = SUPERGRAPH_YAML): SupergraphConfig {
  return parseYaml(readFileSync(file, 'utf8')) as SupergraphConfig;
}

/** Composes the subgraph schemas named by supergraph.yaml (rover's format) into a supergraph SDL. */
export function composeSupergraph(file = SUPERGRAPH_YAML): string {
  const config = readSupergraphConfig(file);
  const services = Object.entries(config.subgraphs).map(([name, subgraph]) => ({
    name,
    url: subgraph.routing_url,
    typeDefs: parse(readFileSync(resolve(dirname(file), subgraph.schema.file), 'utf8')),
  }));
  const result = composeServices(services);
  if (result.errors) throw new Error(`composition failed:\n${result.errors.map((e) => e.message).join('\n')}`);
  return result.supergraphSdl;
}
