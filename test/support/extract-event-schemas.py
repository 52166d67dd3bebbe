#!/usr/bin/env python3
"""Extracts the event schemas of the real server's GET /events description into
test/support/event-schemas.json (the subset of components the event union reaches, with the
validation keywords only). Run from the repository root:

    python3 test/support/extract-event-schemas.py <path to the OpenAPI description of GET /events, as YAML>
"""
import json
import sys

import yaml

ROOT = 'get_events_200_response_allOf_events_inner'
# Validation keywords kept; annotations (description, example, deprecated...) are dropped.
KEEP = {'type', 'enum', 'additionalProperties', 'required', 'items', 'allOf', 'oneOf', 'anyOf', '$ref', 'nullable'}


def strip(node):
    if isinstance(node, list):
        return [strip(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == 'properties':
            out[key] = {name: strip(schema) for name, schema in value.items()}
        elif key in KEEP:
            out[key] = strip(value)
    return out


def refs(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == '$ref':
                yield value.rsplit('/', 1)[-1]
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from refs(item)


def main(path):
    schemas = yaml.safe_load(open(path, encoding='utf-8'))['components']['schemas']
    kept, todo = {}, [ROOT]
    while todo:
        name = todo.pop()
        if name in kept:
            continue
        kept[name] = strip(schemas[name])
        todo.extend(refs(kept[name]))
    out = {'source': 'the real OpenAPI get-events description (real server OpenAPI), extracted by test/support/extract-event-schemas.py',
           'root': ROOT, 'schemas': dict(sorted(kept.items()))}
    # One schema per line keeps diffs readable when the description is refreshed.
    lines = [f'{json.dumps(name)}: {json.dumps(schema, ensure_ascii=False, separators=(",", ":"))}' for name, schema in out['schemas'].items()]
    with open('test/support/event-schemas.json', 'w', encoding='utf-8') as f:
        f.write('{\n"source": ' + json.dumps(out['source']) + ',\n"root": ' + json.dumps(ROOT) + ',\n"schemas": {\n')
        f.write(',\n'.join(lines))
        f.write('\n}\n}\n')


if __name__ == '__main__':
    main(sys.argv[1])
