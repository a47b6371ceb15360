select * from users
