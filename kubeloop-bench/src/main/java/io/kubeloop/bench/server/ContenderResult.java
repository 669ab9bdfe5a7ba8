package io.kubeloop.bench.server;

import java.util.List;

/**
 * Everything measured for one server in one run.
 *
 * @param creates the timed creates (objects 0 to {@code --creates})
 * @param load the creates that top the store up to {@code --objects} (before the LIST)
 * @param lists the LIST repetitions
 * @param fanOuts one per watch transport measured
 */
record ContenderResult(
        ServerContender contender,
        CreateResult creates,
        CreateResult load,
        List<ListResult> lists,
        List<FanOutResult> fanOuts) {}
