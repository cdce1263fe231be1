#pragma once
// ctnn::compile<Model, Pipeline>: the executor of a model after the default (or a given) pipeline.
#include <ctnn/pass/pipeline.hpp>
#include <ctnn/runtime/executor.hpp>

namespace ctnn {

template <class Model, class Pipeline = default_pipeline>
using compile = executor<compiled_v<Model, typename detail::checked_pipeline<Pipeline>::type>>;

}  // namespace ctnn
