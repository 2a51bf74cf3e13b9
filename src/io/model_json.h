/* model.json: the structure of a run's model as built, for readers that cannot build it
 * from scenario.json (the Python reader, python/catena): every point's name, each body's
 * ranges, the links with their rest lengths, and the triangles.
 *     {"catena_model": 1, "dimensions": 2, "points": 41,
 *      "names": ["chain.0", ..., "lamp"], "mass": [1, ...],
 *      "bodies": [{"name": "chain", "type": "rope", "first_point": 0, "points": 40,
 *                  "first_link": 0, "links": 39}],
 *      "links": [[0, 1], ...], "rest": [0.25, ...], "faces": [[0, 1, 2], ...]}
 * Indices are those of the trajectories, events.csv and topology.csv; links and points
 * reserved for cuts are listed too (topology.csv says when they join in). A run writes it
 * whole before the first step, with scenario.json. */
#ifndef CATENA_MODEL_JSON_H
#define CATENA_MODEL_JSON_H

#include "core/error.h"
#include "model/model.h"

/* Writes DIR/model.json for m (through a temporary file, core/outfile.h). */
int model_json_write(const char *dir, const struct model *m, struct catena_error *err);

#endif
