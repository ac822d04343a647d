TEST_DEPS_store := util store
