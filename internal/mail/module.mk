TEST_DEPS_mail := util mail
TEST_DEPS_intake := util mail
TEST_DEPS_imap := util mail
