2 . 
2 . 
oh , oh ! 
oh , oh ! 
oh , oh ! 
let us remember , Mr. Speaker , that these segments of our society form the backbone of our economy . 
hear , hear ! 
hear , hear ! 
Mr. Speaker , my question is directed to the Minister of Transport . 
both have many years experience in the manufacture and distribution of forest products . 
1 . 
another point I should like to discuss is the right of the supplier to choose his customers as he sees fit . 
i am getting sick and tired of ministers who seem to have some hang - up with regard to the collective bargaining process . 
there is just one specific item more that I would like to comment upon and then I will sit down , Mr. Speaker . 
order , please . 
3 . 
i can refer him to no better authority on the subject than the hon. member for Don Valley , not just myself . 
it is quite understandable . 
in addition , it could become a serious threat to Confederation and national unity . 
in view of this , we deemed it inadvisable to attend the meeting and so informed COJO . 
Mr. Speaker , the minister suggested that a greater building program might lead to inflationary pressure . 
i disagree with the argument advanced by the minister . 
there is a lot to be said on both sides of that question . 
order . 
Mr. Speaker , as I indicated to the Leader of the Opposition , I would hope to make an announcement on this question on November 1 . 
quite right . 
it does not bring anybody closer to rehabilitation to isolate him from the public . 
he left a wife and family . 
on a point of order , Mr. Chairman , I am sure the hon. member for Verdun would not have denigrated my position . 
can the insurance industry in turn act as an airline ? 
i say this to you , Mr. Speaker : the people of Toronto know the government has no answers . 
their evidence on the state of each stock was taken fully into account . 
thank you very much , Mr. Speaker , and I thank hon. members for allowing me the privilege to continue . 
i urge this intensive study , Mr. Speaker , for we know so little about the reasons that turn people into criminals . 
the government must assist its own employees who may need another language to advance their careers . 
i do not have any qualms about the type of language I use . 
motion agreed to . 
Mr. Speaker , no decision has been reached as yet but I should think so . 
the matter of trade relations with our European counterparts should be very seriously considered . 
what we should be concerned with in this country is the situation when these animals are shipped out of Canada for this purpose . 
they have already given an indication of the branches they intend to close . 
this minister watched while half the proceeds and profits of the Canadian agriculture industry were swept away in a budget speech . 
Mr. Chairman , absolutely none . 
we are analysing the report now and I hope to have some information for the House in the near future . 
hear , hear ! 
hear , hear ! 
i would therefore move , seconded by the hon. member for Dartmouth - Halifax East ( Mr. Forrestall ) : 
when we realize the extent of the ravages caused by organized crime in our country , we must consider deep - rooted solutions . 
but oh how their popularity soared and they coasted through on that . 
( 2 ) A committee is bound by , and not at liberty to depart from , the order of reference . 
