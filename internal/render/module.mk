TEST_DEPS_render := util render
TEST_DEPS_mustache_spec := util render
TEST_DEPS_png := util render
