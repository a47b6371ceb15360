select * from orders
