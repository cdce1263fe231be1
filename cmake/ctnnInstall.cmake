# (to be written: install + export of ctnn::ctnn, package config)
