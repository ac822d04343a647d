TEST_DEPS_mail := util mail
